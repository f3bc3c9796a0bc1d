"""The application: Flask app factory, API, command handling, the Redis event store, CLI."""


def create_app(settings=None, wiring=None):
    """Build the Flask app (gunicorn: `service:create_app()`)."""
    from service.web.app import create_app as factory  # flask loads only for the web app: `import service` stays light
    return factory(settings, wiring)
