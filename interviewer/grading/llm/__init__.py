"""The OpenAI-compatible grader: client, prompts (Jinja2), parsing, evidence checks and merging.

The only part of the package that talks to the network.  Importing this
package imports nothing heavy; ``openai`` loads with ``client``.
"""
