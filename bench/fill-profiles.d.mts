/** Adds `count` generated profiles through `execute` (one SQL statement per call), then analyzes the table. */
export function fillProfiles(execute: (text: string) => Promise<unknown>, count: number): Promise<void>;
