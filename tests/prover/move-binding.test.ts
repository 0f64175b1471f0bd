/**
 * A move acts on two objects (resource-binding.ts, `also_bound`): the parent the child goes under and
 * the child itself. Each needs a check bound to it. A check one call deeper (`if
 * (!$this->isSortChangePermissible(...)) return;`) binds an object only when the object itself is passed
 * to the parameter its check names; a check on another argument that comes from the same request payload
 * (the sort map both were looked up by) binds that other object.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

/** A book sort: the request's sort map names the moved item and its new book; `permissible` is the helper's check. */
const sort = (permissible: string) => ({
  'app/Tools/BookContents.php': `<?php
namespace App\\Tools;
class BookContents
{
    public function sortUsingMap(SortMap $sortMap): void
    {
        $modelMap = $this->loadModels($sortMap);
        foreach ($sortMap->all() as $item) {
            $this->applySortUpdate($item, $modelMap);
        }
    }

    protected function applySortUpdate(SortMapItem $item, array $modelMap): void
    {
        $model = $modelMap[$item->type . ':' . $item->id] ?? null;
        $newBook = $modelMap['book:' . $item->parentBookId] ?? null;
        $currentParent = $modelMap['book:' . $model->book_id] ?? null;
        if (!$this->isSortChangePermissible($item, $model, $currentParent, $newBook)) {
            return;
        }
        $model->changeBook($newBook->id);
    }

    protected function isSortChangePermissible(SortMapItem $item, Entity $model, ?Entity $currentParent, ?Entity $newBook): bool
    {
        if (!$currentParent || !$newBook) {
            return false;
        }
${permissible}
        return true;
    }
}
`,
  'app/Http/Controllers/BookSortController.php': `<?php
namespace App\\Http\\Controllers;
use App\\Tools\\BookContents;
class BookSortController extends Controller
{
    public function update(Request $request, string $bookSlug, BookContents $contents)
    {
        $book = Book::where('slug', $bookSlug)->firstOrFail();
        $this->authorize('update', $book);
        $sortMap = SortMap::fromJson($request->get('sort-tree'));
        $contents->sortUsingMap($sortMap);
        return redirect($book->getUrl());
    }
}
`,
  'routes/web.php': "<?php\nRoute::middleware('auth')->group(function () {\n    Route::put('/books/{bookSlug}/sort', [BookSortController::class, 'update']);\n});\n",
});

async function unbound(permissible: string): Promise<(string | undefined)[]> {
  const files = sort(permissible);
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 4, fanOut: 25 });
  expect(result.coverage.operationsChecked).toBeGreaterThan(0);
  return result.findings.map((f) => f.unboundResource?.variable);
}

/** The helper's check stored and left on, as BookStack writes it. */
const refuse = (condition: string) => `        $hasPermission = ${condition};\n        if (!$hasPermission) {\n            return false;\n        }`;

describe('a move binds the child and its new parent', () => {
  it('checks on the old and new parents leave the moved child unchecked', async () => {
    expect(await unbound(refuse("Gate::allows('update', $currentParent) && Gate::allows('update', $newBook)"))).toEqual(['$model']);
  });

  it('a check on a value taken from the same sort item binds another object', async () => {
    const viaItem = `        $newParent = $item->parentChapterId ? $this->chapterOf($item) : $newBook;\n${refuse("Gate::allows('update', $newParent)")}`;
    expect(await unbound(viaItem)).toEqual(['$model']);
  });

  it('checks on the child and the new parent settle it', async () => {
    expect(await unbound(refuse("Gate::allows('update', $newBook) && Gate::allows('update', $model)"))).toEqual([]);
    // one check per object, each left on
    expect(await unbound(`${refuse("Gate::allows('update', $newBook)")}\n${refuse("Gate::allows('delete', $model)")}`)).toEqual([]);
  });

  it('a check on the child alone leaves the new parent unchecked', async () => {
    expect(await unbound(refuse("Gate::allows('update', $model)"))).toEqual(['$newBook->id']);
  });
});
