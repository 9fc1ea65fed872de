"""Changing the files, always through one door (door.apply): the store, atomic writes, the tree's
lock, the journal and recovery, the trash, index writes, the edits people make and the curator
that keeps their undo. The top room: it may import every other."""
