"""The protocol's data as plain values: frame schemas and the connection test's settings, computed from
platform_config/ (or from the generator's validated Config) with nothing but the standard library.

It sits below both `generator` and `starter_kit`: each may import it, it imports neither, so the kit and the
connection test take their numbers and sentences from the config without reaching up into the site builder.
"""
