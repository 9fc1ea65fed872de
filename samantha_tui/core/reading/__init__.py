"""From files to records: where a tree is (locate), what is in it (scan), one file read the way
samantha-llm reads it (reader, frontmatter, the YAML paths), the catalog that remembers what was
read, and the watcher that says what changed. Imports only basics."""
