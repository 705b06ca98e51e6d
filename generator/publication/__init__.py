"""The publication check: what a built or published site says, compared number by number with the config."""
