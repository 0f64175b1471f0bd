import re

from flask import Flask, request

app = Flask(__name__)


@app.post("/quote")
def quote():
    quantity = request.form.get("quantity", "1")
    if not re.match(r"\d{1,4}\Z", quantity):
        return "quantity must be a number", 400
    total = eval(quantity + " * 9.5")  # SINK
    return {"total": total}
