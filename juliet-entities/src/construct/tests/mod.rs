//! Behaviour tests of the construct layer (the batch's own tests are in `batch`).
