// launch-bench: work in progress
