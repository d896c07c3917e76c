"""A person's own pages and their API (issue 26: lifted out of accounts, which stays below the core)."""
