import { runRecogniserTable } from '../recogniser-tester.js';

runRecogniserTable('flask', {
  positive: [
    {
      name: 'blueprint routes, verb shortcuts, add_url_rule and RESTX resources',
      files: {
        'app/admin.py': `from flask import Blueprint
from flask_restx import Namespace, Resource

admin = Blueprint("admin", __name__)
ns = Namespace("users")

@admin.route("/admin/reset", methods=["POST"])
def reset():
    pass

@admin.post("/admin/purge")
def purge():
    pass

def export():
    pass

admin.add_url_rule("/admin/export", view_func=export)

@ns.route("/<int:user_id>")
class User(Resource):
    def delete(self, user_id):
        pass
    def helper(self):
        pass
`,
      },
      entries: [
        { function: 'reset', line: 7 },
        { function: 'purge', line: 11 },
        { function: 'export', line: 15 },
        { function: 'User.delete', line: 22 },
      ],
    },
    {
      name: 'MethodView verb methods',
      files: { 'app/views.py': 'from flask.views import MethodView\n\nclass Items(MethodView):\n    def post(self):\n        pass\n' },
      entries: [{ function: 'Items.post', line: 4 }],
    },
  ],
  negative: [
    {
      name: 'FastAPI path operations are not Flask views',
      files: { 'app/main.py': 'from fastapi import FastAPI\napp = FastAPI()\n\n@app.route("/x")\ndef x():\n    pass\n' },
    },
    {
      name: 'a cache decorator named get in a file that does not import Flask',
      files: { 'app/util.py': 'import cache\n\n@cache.get("key")\ndef cached():\n    pass\n' },
    },
  ],
});
