"""A game's life on the database: create and invite (``create``), play and take back
(``play``), records and replay (``records``), the shared shape of scheduled steps
(``steps``) and random play to the end (``selfplay``).  Nothing here knows one game's
rules or renders a page."""
