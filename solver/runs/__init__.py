"""Many deals: batches and their executors, the results store and its leases, statistics, reports, banks and the bench signature."""
