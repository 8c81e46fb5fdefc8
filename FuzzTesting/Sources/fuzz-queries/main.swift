import FuzzDriver

FuzzDriver.main(target: "queries")
