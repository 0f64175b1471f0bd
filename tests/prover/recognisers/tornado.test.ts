import { runRecogniserTable } from '../recogniser-tester.js';

runRecogniserTable('tornado', {
  positive: [
    {
      name: 'verb methods through a repository base handler',
      files: {
        'app/handlers.py': `import tornado.web
class BaseHandler(tornado.web.RequestHandler):
    def get_current_user(self):
        return None

class PurgeHandler(BaseHandler):
    def post(self):
        pass
    def helper(self):
        pass
`,
      },
      entries: [{ function: 'PurgeHandler.post', line: 7 }],
    },
    {
      name: 'WebSocket open and on_message',
      files: {
        'app/ws.py': `from tornado.websocket import WebSocketHandler
class Feed(WebSocketHandler):
    def open(self):
        pass
    def on_message(self, message):
        pass
`,
      },
      entries: [
        { function: 'Feed.open', line: 3, kind: 'websocket' },
        { function: 'Feed.on_message', line: 5, kind: 'websocket' },
      ],
    },
    {
      name: 'a handler of a library base the application URL list registers (subclassed Application)',
      files: {
        'app/server.py': `import tornado.web
from app.handlers import NoteHandler


class CustomApplication(tornado.web.Application):
    pass


handlers = [
    (
        r"/api/notes(/[0-9]+)?",
        NoteHandler,
    ),
]
`,
        'app/handlers.py': `from outside.handlers import BaseHandler


class NoteHandler(BaseHandler):
    def delete(self, note_id):
        pass

    def render_note(self):
        pass
`,
      },
      entries: [{ function: 'NoteHandler.delete', line: 5 }],
    },
  ],
  negative: [
    {
      name: 'a tuple naming a class in a file that builds no Tornado application',
      files: {
        'app/table.py': `from app.handlers import NoteHandler

ROUTES = [(r"/api/notes", NoteHandler)]
`,
        'app/handlers.py': `from outside.handlers import BaseHandler


class NoteHandler(BaseHandler):
    def delete(self, note_id):
        pass
`,
      },
    },
    {
      name: 'a plain class with a get method',
      files: { 'app/cache.py': 'class Cache:\n    def get(self, key):\n        return None\n' },
    },
    {
      name: 'open() of a normal RequestHandler is not an entry',
      files: { 'app/h.py': 'import tornado.web\nclass H(tornado.web.RequestHandler):\n    def open(self):\n        pass\n' },
    },
  ],
});
