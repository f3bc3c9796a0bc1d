"""JSON API blueprints."""
