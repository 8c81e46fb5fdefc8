# Homebrew formula for realmctl: builds the tagged release from source with the Swift toolchain
# (Xcode's on macOS, Homebrew's `swift` on Linux) and installs the binary, the man page and the
# bash, zsh and fish completions. Use it from this repository as a tap:
#   brew tap realmctl/realmctl https://github.com/realmctl/realmctl
#   brew install realmctl
# At each release: the tag and revision below change with Sources/RealmCLI/Version/ReleaseVersion.swift.
class Realmctl < Formula
  desc "Inspect, query, migrate, create and convert Realm database files"
  homepage "https://github.com/realmctl/realmctl"
  url "https://github.com/realmctl/realmctl.git",
      tag: "v1.0.0"
  license "Apache-2.0"
  head "https://github.com/realmctl/realmctl.git", branch: "main"

  # Swift 6.2: Xcode 26 on macOS 15 and later.
  depends_on xcode: ["26.0", :build]
  depends_on macos: :sequoia

  uses_from_macos "swift" => :build

  def install
    args = ["--disable-sandbox", "--configuration", "release", "--product", "realmctl"]
    # Linux: the Swift runtime inside the binary, so it runs without Homebrew's swift installed.
    args << "--static-swift-stdlib" if OS.linux?
    system "swift", "build", *args
    bin.install "#{Utils.safe_popen_read("swift", "build", *args, "--show-bin-path").chomp}/realmctl"
    with_env(SOURCE_DATE_EPOCH: time.to_i.to_s) do
      (man1/"realmctl.1").write Utils.safe_popen_read(bin/"realmctl", "generate-manual")
    end
    generate_completions_from_executable(bin/"realmctl", "completion")
  end

  test do
    assert_match version.to_s, shell_output("#{bin}/realmctl --version")

    (testpath/"schema.json").write <<~JSON
      {"schemaVersion": 1, "classes": [
        {"name": "Person", "primaryKey": "id", "properties": [
          {"name": "id", "type": "int"},
          {"name": "name", "type": "string"}
        ]}
      ]}
    JSON
    (testpath/"people.jsonl").write <<~JSONL
      {"$class":"Person","id":1,"name":"Ada"}
      {"$class":"Person","id":2,"name":"Grace"}
    JSONL
    system bin/"realmctl", "create", testpath/"people.realm", "--schema", testpath/"schema.json",
           "--data", testpath/"people.jsonl"
    output = shell_output("#{bin}/realmctl open #{testpath}/people.realm")
    assert_match(/^File format: +24/, output)
    assert_match(/Person +2 objects/, output)
    assert_match "Ada", shell_output("#{bin}/realmctl dump #{testpath}/people.realm --format jsonl")
  end
end
