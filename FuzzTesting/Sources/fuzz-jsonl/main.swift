import FuzzDriver

FuzzDriver.main(target: "jsonl")
