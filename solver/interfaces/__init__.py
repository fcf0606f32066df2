"""What a person or program talks to: the command line, the resident solver and the replay page."""
