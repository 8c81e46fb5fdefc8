import FuzzDriver

FuzzDriver.main(target: "legacy")
