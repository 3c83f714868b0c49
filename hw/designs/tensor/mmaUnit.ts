// gpu/ imports this path until it moves into coruscant/ beside the rest of the showcase.
export * from '../../../coruscant/designs/tensor/mmaUnit.ts';
