import type { Tx } from './db/index.js';

/**
 * Privacy rights (Part A 4.10) need every module's data about a person. Each module that stores personal
 * data contributes one entry: what it holds for the subject in an organization (access and portability
 * export) and how to scrub it (erasure). The tables it names are checked by a test against the database, so a
 * module that adds a table with personal data cannot forget to contribute.
 */
export interface PersonalDataContributor {
  /** Section name in the export document, e.g. `profile`, `sessions`, `api_keys`. */
  name: string;
  /** Tables this contributor exports and erases rows of. */
  tables: readonly string[];
  /** The subject's data in this organization, in the documented export shape. Runs in the tenant transaction. */
  export(tx: Tx, tenantId: string, userId: string): Promise<unknown>;
  /** Scrubs the subject's personal data in this organization. Never touches the audit log. */
  erase(tx: Tx, tenantId: string, userId: string): Promise<void>;
}

export interface PersonalDataRegistry {
  add(contributor: PersonalDataContributor): void;
  contributors(): readonly PersonalDataContributor[];
}

export function createPersonalDataRegistry(): PersonalDataRegistry {
  const list: PersonalDataContributor[] = [];
  return {
    add(contributor) {
      if (list.some((c) => c.name === contributor.name)) throw new Error(`duplicate contributor ${contributor.name}`);
      list.push(contributor);
    },
    contributors: () => list,
  };
}
