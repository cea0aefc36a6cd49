/* The tie rule of every page, in a module of its own: Coach reads it before Play's modules are loaded
 * (lib/later.js). A choice within the table's `tie` of the best is optimal (lib/play.js, "Ties"). */

/** The tie width of a table: its header's `tie` (0 without one: only equal values tie). */
export const tieOf = (table) => Number(table?.header?.tie) || 0;

/** A choice whose cost (its value's distance below the best) is within the tie width is optimal. */
export const isOptimal = (cost, tie = 0) => cost <= tie;
