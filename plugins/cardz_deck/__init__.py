"""The distribution-aware deck plugin: unseen cards are counts, a reveal is a weighted draw."""
