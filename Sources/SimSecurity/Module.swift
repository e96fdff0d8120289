// SimSecurity: work in progress
