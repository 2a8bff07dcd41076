"""A game's log read back: its record and replay (``records``), its history in words
(``history``, with the table talk among the moves), its standing at the end
(``standing``) and random play to the end (``selfplay``).

Below the lifecycle that writes the log and below mail and the archive that read it:
nothing here writes a move or queues a mail, so every part may read a game through it.
"""
