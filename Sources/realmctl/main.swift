import RealmCLI

print(RealmCtl.version)
