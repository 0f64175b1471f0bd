import { runRecogniserTable } from '../recogniser-tester.js';

runRecogniserTable('fastapi', {
  positive: [
    {
      name: 'path operations on the app and on a router, a websocket, add_api_route',
      files: {
        'app/main.py': `from fastapi import APIRouter, Depends, FastAPI

app = FastAPI()
router = APIRouter(prefix="/admin")

@app.get("/items/{item_id}")
async def read_item(item_id: int):
    pass

@router.delete("/users/{uid}")
def delete_user(uid: int):
    pass

@app.websocket("/ws")
async def feed(websocket):
    pass

def health():
    pass

app.add_api_route("/health", health)
`,
      },
      entries: [
        { function: 'read_item', line: 6 },
        { function: 'delete_user', line: 10 },
        { function: 'feed', line: 14, kind: 'websocket' },
        { function: 'health', line: 18 },
      ],
    },
  ],
  negative: [
    {
      name: 'the same decorators in a Flask file',
      files: { 'app/views.py': 'from flask import Flask\napp = Flask(__name__)\n\n@app.get("/x")\ndef x():\n    pass\n' },
    },
  ],
});
