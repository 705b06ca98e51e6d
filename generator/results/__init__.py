"""Run records in, the standings figures out: records.py validates, aggregate.py computes."""
