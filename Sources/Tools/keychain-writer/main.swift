// keychain-writer: work in progress
