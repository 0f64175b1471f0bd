/**
 * Parse throughput per language: `npx tsx bench/parse.ts [runs]`.
 * Generates about 1 MiB of code per language by repeating a class-sized unit with numbered names,
 * then times parse alone and parse + IR build (median of the runs after a warm-up), and prints the
 * peak RSS of the process at the end.
 */
import { buildIR } from '../src/syntax/ir.js';
import { LANGUAGES, type Language } from '../src/syntax/languages.js';
import { loadGrammars, parse } from '../src/syntax/parser.js';

const TARGET_BYTES = 1024 * 1024;

/** One class-sized unit of realistic code; `n` numbers the names so units do not repeat exactly. */
const UNITS: Record<Language, (n: number) => string> = {
  python: (n) => `
class UserHandler${n}(tornado.web.RequestHandler):
    @tornado.web.authenticated
    async def post(self, user_id: int, *args, **kwargs):
        user = await self.db.fetch_user(user_id)
        if not user or user.id != self.current_user.id:
            raise tornado.web.HTTPError(403)
        payload = json.loads(self.request.body)
        keep = lambda item: item.get("active", False)
        items = [transform(i) for i in payload["items"] if keep(i)]
        self.write({"count": len(items), "user": user.name})

    def _audit${n}(self, action):
        log.info("action %s by %s", action, self.current_user)
`,
  javascript: (n) => `
class UserController${n} extends BaseController {
  static create(options = {}, ...middleware) { return new UserController${n}(options, middleware); }
  async destroy(req, res) {
    const user = await this.users.find(req.params.id);
    if (!user || user.ownerId !== req.session.userId) { return res.status(403).json({ error: 'forbidden' }); }
    await this.users.remove(user.id);
    const audit = (action) => logger.info('action', { action, user: user.id });
    audit('destroy');
    res.json({ ok: true, items: user.items.filter((i) => i.active).map((i) => i.id) });
  }
}
app.delete('/users/${n}/:id', requireAuth, (req, res) => controller${n}.destroy(req, res));
`,
  typescript: (n) => `
export class UserService${n} implements Service {
  constructor(private readonly repo: Repository<User>, private readonly log: Logger) {}
  @Authorized('admin')
  async remove(id: string, options?: { force: boolean }): Promise<void> {
    const user: User | undefined = await this.repo.findOne({ where: { id } });
    if (!user) { throw new NotFoundError(\`user \${id}\`); }
    const active = user.items.filter((item: Item) => item.active).map((item) => item.id);
    this.log.info('removing', { id, active: active.length, force: options?.force ?? false });
    await this.repo.delete(user.id);
  }
}
export async function action${n}({ request }: ActionArgs): Promise<Response> { return redirect('/users'); }
`,
  tsx: (n) => `
export function UserList${n}({ users, onDelete }: { users: User[]; onDelete: (id: string) => void }) {
  const [filter, setFilter] = useState<string>('');
  const visible = users.filter((u) => u.name.includes(filter));
  return (
    <div className="user-list">
      <input value={filter} onChange={(e) => setFilter(e.target.value)} />
      <ul>{visible.map((u) => <li key={u.id}>{u.name}<button onClick={() => onDelete(u.id)}>x</button></li>)}</ul>
    </div>
  );
}
`,
  java: (n) => `
@Extension
public class PluginAction${n} extends AbstractAction implements Describable {
    @RequirePOST
    public HttpResponse doDelete(@QueryParameter String name, StaplerRequest req) throws IOException {
        Jenkins.get().checkPermission(Jenkins.ADMINISTER);
        Item item = Jenkins.get().getItemByFullName(name);
        if (item == null) { return HttpResponses.notFound(); }
        Runnable cleanup = () -> store.remove(name);
        new Thread(cleanup).start();
        return HttpResponses.redirectTo("../");
    }
    protected static int count${n}(int... values) { int s = 0; for (int v : values) { s += v; } return s; }
}
`,
  php: (n) => `
#[Route('/admin/users${n}', methods: ['DELETE'])]
class UserController${n} extends Controller
{
    #[IsGranted('ROLE_ADMIN')]
    public function destroy(User $user, ?int $force = null): RedirectResponse
    {
        $this->authorize('delete', $user);
        $items = array_filter($user->items, fn($i) => $i->active);
        User::findOrFail($user->id)->delete();
        Log::info('deleted', ['id' => $user->id, 'items' => count($items)]);
        return redirect()->route('users.index');
    }
}
`,
  go: (n) => `
type Server${n} struct{ db *sql.DB }

func (s *Server${n}) DeleteUser(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("id")
	if id == "" {
		http.Error(w, "missing id", http.StatusBadRequest)
		return
	}
	done := func(code int) { w.WriteHeader(code) }
	if _, err := s.db.Exec("DELETE FROM users WHERE id = ?", id); err != nil {
		log.Printf("delete %s: %v", id, err)
		done(500)
		return
	}
	done(204)
}
`,
  ruby: (n) => `
class UsersController${n} < ApplicationController
  before_action :authenticate_user!
  def destroy(id = params[:id])
    @user = User.find(id)
    authorize! :destroy, @user
    @user.items.select { |i| i.active? }.each { |i| i.archive! }
    @user.destroy!
    redirect_to users_path, notice: "deleted"
  end
end
`,
};

function generate(language: Language): string {
  const head = language === 'php' ? '<?php\n' : language === 'go' ? 'package bench\n' : '';
  const parts: string[] = [head];
  let size = head.length;
  for (let n = 0; size < TARGET_BYTES; n++) {
    const unit = UNITS[language](n);
    parts.push(unit);
    size += unit.length;
  }
  return parts.join('');
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? 6);
  await loadGrammars(LANGUAGES); // deps.md T16: all grammars before the first parse
  console.log(`language     MiB   parse MiB/s   parse+IR MiB/s   functions  calls  errors`);
  for (const language of LANGUAGES) {
    const text = generate(language);
    const mib = Buffer.byteLength(text) / (1024 * 1024);
    const parseTimes: number[] = [];
    const irTimes: number[] = [];
    let summary = '';
    for (let i = 0; i < runs; i++) {
      let start = performance.now();
      const tree = await parse(language, text);
      parseTimes.push(performance.now() - start);
      tree.delete();
      start = performance.now();
      const ir = await buildIR(`bench.${language}`, language, text);
      irTimes.push(performance.now() - start);
      summary = `${String(ir.functions.length).padStart(9)}  ${String(ir.calls.length).padStart(5)}  ${ir.hasErrors}`;
    }
    // The first run is a warm-up.
    const parseMs = median(parseTimes.slice(1));
    const irMs = median(irTimes.slice(1));
    console.log(
      `${language.padEnd(10)} ${mib.toFixed(2).padStart(5)}   ${(mib / (parseMs / 1000)).toFixed(2).padStart(11)}   ${(mib / (irMs / 1000)).toFixed(2).padStart(14)}   ${summary}`,
    );
  }
  const { maxRSS } = process.resourceUsage(); // kilobytes
  console.log(`peak RSS: ${(maxRSS / 1024).toFixed(0)} MiB`);
}

await main();
