"""What is derived from the records, writing nothing: the index files' contents, the bootstrap
plan, the curation rules' plans (lifecycle), search and stats. Imports basics and reading."""
