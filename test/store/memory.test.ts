import { createMemoryStore } from '../../src/store/memory.ts';
import { runStoreSuite } from './store-suite.ts';

runStoreSuite('memory', async ({ clock }) => createMemoryStore({ clock }));
