import { RunawayListError } from './errors';
import * as l10n from '@vscode/l10n';

/** Identity of a page's rows: their ids when every row has one, else the rows themselves. */
function fingerprint(items: readonly unknown[]): string {
  const ids = items.map((item) =>
    typeof item === 'object' && item !== null && 'id' in item ? item.id : undefined,
  );
  return JSON.stringify(ids.every((id) => typeof id === 'number' || typeof id === 'string') ? ids : items);
}

/**
 * Ends every loop over a server's pages (design.md section 6): a server that ignores `page` and
 * sends the same rows again, that keeps announcing a next page past its own total, or that never
 * stops is cut off with a `RunawayListError` instead of filling memory. One guard per listing;
 * `check` every page, in order, before its rows are used.
 */
export class RunawayGuard {
  private pages = 0;
  private previous: string | undefined;
  private announcedPages: number | undefined;

  constructor(
    private readonly context: string,
    private readonly maxPages: number,
    /**
     * The same rows twice are an answer, not a runaway: a walk by date asks again from a second it
     * has read, and the same reply is how it learns it has reached the end (it stops on its own).
     */
    private readonly options: { sameRowsAgainEnds?: boolean } = {},
  ) {}

  check(page: { items: readonly unknown[]; page?: number; totalPages?: number | undefined }): void {
    this.pages += 1;
    if (this.announcedPages === undefined && page.totalPages !== undefined && page.totalPages > 0) {
      this.announcedPages = page.totalPages;
    }
    if (page.items.length > 0) {
      const current = fingerprint(page.items);
      if (current === this.previous && !this.options.sameRowsAgainEnds) {
        throw new RunawayListError(
          this.context,
          'repeated-page',
          l10n.t(
            'the server sent the same {0} rows on page {1} as on the page before (it may ignore the page parameter)',
            page.items.length,
            this.pages,
          ),
        );
      }
      this.previous = current;
    }
    // A list may grow by a page while it is read; more than that is a server counting on forever.
    if (this.announcedPages !== undefined && this.pages > this.announcedPages + 1 && page.items.length > 0) {
      throw new RunawayListError(
        this.context,
        'past-total',
        l10n.t(
          'the server announced {0} pages and kept sending more (page {1})',
          this.announcedPages,
          this.pages,
        ),
      );
    }
    if (this.pages > this.maxPages) {
      throw new RunawayListError(
        this.context,
        'cap',
        l10n.t('more than {0} pages; raise "forge.maxListPages" to read longer lists', this.maxPages),
      );
    }
  }
}
