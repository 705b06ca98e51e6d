"""Turns platform_config/ into the public site."""
