
'/device:TPU:0*correlation_id