"""The connection test: the platform's client, run locally against an entrant's endpoint (asyncio shell over
starter_kit.protocol's state machine). It needs only the `websockets` package, so it also ships inside the kit."""
