"""What playing together adds to the table (``games.panels``): one file per panel, registered in ``apps.py``."""
