import FuzzDriver

FuzzDriver.main(target: "edits")
