"""The base floor: records, text and dates, errors and input checks, settings, runs.

Nothing here imports another graphgate package: every other floor builds on it.
"""
