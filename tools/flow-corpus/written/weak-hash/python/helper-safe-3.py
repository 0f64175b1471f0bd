import hashlib

from flask import Flask, request

app = Flask(__name__)


def etag_for(body: bytes, algorithm: str = "sha1") -> str:
    return hashlib.new(algorithm, body).hexdigest()  # SINK


@app.post("/documents")
def save_document():
    body = request.get_data()
    return {"etag": etag_for(body, algorithm="sha384")}
