import re

from flask import Flask, request

app = Flask(__name__)


@app.post("/quote")
def quote():
    quantity = request.form.get("quantity", "1")
    # re.match only checks the start: "2 + __import__('os').getpid()" passes
    if not re.match(r"\d", quantity):
        return "quantity must be a number", 400
    total = eval(quantity + " * 9.5")  # SINK
    return {"total": total}
