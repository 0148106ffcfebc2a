// Placeholder until the record store tests land from the store branch.
