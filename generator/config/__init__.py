"""The platform configuration: the single source of every published fact."""

from generator.config.errors import ConfigError, ConfigProblem
from generator.config.load import load_config
from generator.config.validated import Config

__all__ = ["Config", "ConfigError", "ConfigProblem", "load_config"]
