// keychain-bench: work in progress
