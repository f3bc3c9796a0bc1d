"""`turnstream new-game`: the files of a small complete game package, from the templates beside this module."""
