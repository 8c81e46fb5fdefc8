import FuzzDriver

FuzzDriver.main(target: "encrypted")
