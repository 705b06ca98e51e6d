"""The page model: from Config to what each page says. Pure; no I/O."""
