import FuzzDriver

FuzzDriver.main(target: "reader")
