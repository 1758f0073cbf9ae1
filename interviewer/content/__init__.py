"""Case and rubric content: schema, loading and validation."""
