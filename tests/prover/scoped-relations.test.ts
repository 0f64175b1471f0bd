/**
 * Relation reads past a visibility scope (src/prover/scoped-relations.ts): in a Laravel project whose
 * models carry a visibility scope it applies (`scopeVisible`, `Page::visible()`), answering with an
 * Eloquent relation read as a property (`$chapter->pages`) hands out rows the caller may not view. Only
 * an administrator's role covers it; a permission or a login says nothing about which rows are seen.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

const MODELS = (relation: string) => ({
  'app/Models/Entity.php': `<?php
namespace App\\Models;
abstract class Entity extends Model
{
    public function scopeVisible(Builder $query): Builder
    {
        return $query->whereIn('id', Permission::visibleIds());
    }
}
`,
  'app/Models/Page.php': '<?php\nnamespace App\\Models;\nclass Page extends Entity\n{\n}\n',
  'app/Models/Chapter.php': `<?php
namespace App\\Models;
class Chapter extends Entity
{
    public function pages(): HasMany
    {
        return ${relation};
    }
}
`,
});

/** Other code of the project applying the scope: the norm (`uses` times). */
const queries = (uses: number) => `<?php
namespace App\\Queries;
class PageQueries
{
${Array.from({ length: uses }, (_, i) => `    public function list${i}(int $chapterId)\n    {\n        return Page::visible()->where('chapter_id', $chapterId)->get();\n    }\n`).join('\n')}
}
`;

const FORMATTER = `<?php
namespace App\\Tools;
class ChapterFormatter
{
    public function toText(Chapter $chapter): string
    {
        $text = $chapter->name;
        foreach ($chapter->pages as $page) {
            $text .= $page->name;
        }
        return $text;
    }

    public function touchAll(Chapter $chapter): void
    {
        foreach ($chapter->pages as $page) {
            $page->touch();
        }
    }
}
`;

const controller = (body: string) => `<?php
namespace App\\Http;
use App\\Tools\\ChapterFormatter;
class ChapterApiController extends Controller
{
    public function __construct(protected ChapterFormatter $formatter)
    {
    }

    public function read(int $id)
    {
        $chapter = Chapter::visible()->findOrFail($id);
${body}
    }
}
`;

const ROUTES = `<?php
Route::middleware('auth')->group(function () {
    Route::get('/api/chapters/{id}', [ChapterApiController::class, 'read']);
});
`;

async function reads(body: string, options: { relation?: string; uses?: number } = {}): Promise<string[]> {
  const files = {
    ...MODELS(options.relation ?? '$this->hasMany(Page::class)->orderBy(\'priority\')'),
    'app/Queries/PageQueries.php': queries(options.uses ?? 2),
    'app/Tools/ChapterFormatter.php': FORMATTER,
    'app/Http/ChapterApiController.php': controller(body),
    'routes/api.php': ROUTES,
  };
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.coverage.entryPoints).toBeGreaterThan(0);
  return result.findings.filter((f) => f.operation.id === 'php.unscoped-relation-read').map((f) => `${f.entry.function} ${f.function}:${f.line} ${f.label}`);
}

describe('an answer with a relation that skips the visibility scope', () => {
  it('is a finding when the handler returns it, past a login check', async () => {
    expect(await reads('        return response()->json(["pages" => $chapter->pages->all()]);')).toEqual(['ChapterApiController.read ChapterApiController.read:13 authn_only']);
    // the body the cases below vary
    expect(await reads('        return response()->json($chapter->pages);')).toEqual(['ChapterApiController.read ChapterApiController.read:13 authn_only']);
  });

  it('is a finding when a helper returns what a loop over it accumulates and each hop hands that on as its answer', async () => {
    expect(await reads('        return $this->formatter->toText($chapter);')).toEqual(['ChapterApiController.read ChapterFormatter.toText:8 authn_only']);
    // the handler assigns the helper's answer to a local it returns
    expect(await reads("        $text = $this->formatter->toText($chapter);\n        return response()->json(['text' => $text]);")).toEqual(['ChapterApiController.read ChapterFormatter.toText:8 authn_only']);
  });

  it.each([
    ['the scoped query instead of the relation', "        return response()->json(Page::visible()->where('chapter_id', $chapter->id)->get());", {}],
    ['a relation that applies the scope itself', '        return response()->json($chapter->pages);', { relation: '$this->hasMany(Page::class)->visible()' }],
    ['a scope the project applies only once: no norm', '        return response()->json($chapter->pages);', { uses: 0 }],
    ['a loop that writes, not answers', "        $this->formatter->touchAll($chapter);\n        return response()->json(['ok' => true]);", {}],
    ['a hop whose result the handler does not return', "        $text = $this->formatter->toText($chapter);\n        Log::info($text);\n        return response()->json(['ok' => true]);", {}],
    ['an administrator check before it', "        abort_unless(user()->hasRole('admin'), 403);\n        return response()->json($chapter->pages);", {}],
  ])('is no finding: %s', async (_name, body, options) => {
    expect(await reads(body, options)).toEqual([]);
  });
});
