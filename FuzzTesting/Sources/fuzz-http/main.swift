import FuzzDriver

FuzzDriver.main(target: "http")
