export { hashFileIfAny, hashTree, storeKey } from "./key.js";
export {
  copyStoredRun,
  openStore,
  type ResultStore,
  type StoredRun,
  type StoreKind,
  type StoreSettings,
} from "./store.js";
