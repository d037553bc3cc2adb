
#	/host:CPU*correlation_id