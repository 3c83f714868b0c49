/** See compileFramework.mjs. */
export const FILES_READ_BESIDE: readonly string[];
/** See compileFramework.mjs. */
export function compileFramework(options: {
  readonly root: string;
  readonly folders: readonly string[];
  readonly outDir: string;
  readonly skip?: readonly string[];
  readonly unmapped?: readonly string[];
  readonly bundled?: readonly string[];
}): Promise<void>;
