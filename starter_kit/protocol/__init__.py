"""The benchmark's WebSocket protocol as a pure, sans-I/O state machine: events in, frames and verdicts out.

Nothing here opens a socket, reads a clock or imports anything beyond the standard library, so the same files
run in the repository, inside the downloadable kit and under tests fed with invented times.
"""
